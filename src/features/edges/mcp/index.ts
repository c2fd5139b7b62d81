export { contextFinder, type McpDependencies } from './dependencies.js';
