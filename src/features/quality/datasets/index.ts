export { presentDataset, presentDatasetItem } from './presenters.js';
export { createDatasetRepository, type DatasetItemRow, type DatasetRow } from './repository.js';
export { createDatasetService, type DatasetService, type GenerationSource } from './service.js';
