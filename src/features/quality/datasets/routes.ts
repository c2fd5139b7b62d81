import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { chatExample, chatMessagesOf } from '../../../core/fine-tuning.js';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { AppError } from '../../../errors.js';
import { creatorOf, workspaceOf } from '../../../http/authentication.js';
import { describeChange, recordChangeOf } from '../../../http/authorization.js';
import { byGuid, removalByGuid } from '../../../http/by-guid.js';
import { sendJsonLines } from '../../../http/json-lines.js';
import { importFormatOf, readItems } from './import.js';
import { presentDataset, presentDatasetItem } from './presenters.js';
import {
  datasetItemResponse,
  datasetResponse,
  exportLineResponse,
  itemChangedResponse,
  itemRemovedResponse,
  itemsAddedResponse,
} from './responses.js';
import {
  addItemsBody,
  changeDatasetBody,
  changeItemBody,
  createDatasetBody,
  exportQuery,
  itemParams,
  versionQuery,
} from './schemas.js';
import type { DatasetService } from './service.js';

export function datasetRoutes(
  datasets: DatasetService,
  options: { importLimitBytes: number },
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['datasets'];

    // An import is read line by line as it arrives (its size is checked as it is read).
    app.addContentTypeParser(
      ['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'text/csv'],
      (_request, payload, done) => done(null, payload),
    );

    app.post(
      '/datasets',
      { schema: { 'x-right': 'write', tags, body: createDatasetBody, response: { 201: datasetResponse } } },
      async (request, reply) => {
        const dataset = await datasets.create(workspaceOf(request).id, creatorOf(request), request.body);
        return reply.status(201).send(presentDataset(dataset));
      },
    );

    app.get(
      '/datasets',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(datasetResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await datasets.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentDataset), total, request.query);
      },
    );

    app.get(
      '/datasets/:guid',
      byGuid('read', tags, { response: datasetResponse }, async (workspaceId, guid) =>
        presentDataset(await datasets.require(workspaceId, guid)),
      ),
    );

    app.put(
      '/datasets/:guid',
      byGuid(
        'write',
        tags,
        { body: changeDatasetBody, response: datasetResponse },
        async (workspaceId, guid, body) => presentDataset(await datasets.change(workspaceId, guid, body)),
      ),
    );

    app.delete(
      '/datasets/:guid',
      removalByGuid('write', tags, (workspaceId, guid) => datasets.remove(workspaceId, guid)),
    );

    app.post(
      '/datasets/:guid/items',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: addItemsBody,
          response: { 201: itemsAddedResponse },
        },
      },
      async (request, reply) => {
        const workspaceId = workspaceOf(request).id;
        const { items, from_data } = request.body;
        const added = from_data
          ? await datasets.addFromData(workspaceId, request.params.guid, from_data)
          : await datasets.addItems(workspaceId, request.params.guid, items!);
        // The items are in the dataset's version; the record says how many and where they came from.
        describeChange(request, { ...added, ...(from_data && { from_data }) });
        return reply.status(201).send(added);
      },
    );

    app.post(
      '/datasets/:guid/items/import',
      {
        schema: {
          'x-right': 'write',
          // The file is read and checked before the transaction that stores it.
          'x-audit': 'in-handler',
          tags,
          description:
            'The body is the items, one per line: JSON Lines (application/x-ndjson) of ' +
            '{ input, expected_output?, metadata? }, or CSV (text/csv) with a header row.',
          params: guidParams,
          response: { 201: itemsAddedResponse },
        },
      },
      async (request, reply) => {
        const workspaceId = workspaceOf(request).id;
        await datasets.require(workspaceId, request.params.guid);
        const format = importFormatOf(request.headers['content-type']);
        if (!format || !(request.body instanceof Readable))
          throw new AppError(
            400,
            'unsupported_content_type',
            'Send the items as JSON Lines (application/x-ndjson) or CSV (text/csv)',
          );
        const items = await readItems(request.body, format, options.importLimitBytes);
        describeChange(request, { format, items: items.length });
        const added = await recordChangeOf(request)(() =>
          datasets.addItems(workspaceId, request.params.guid, items),
        );
        return reply.status(201).send(added);
      },
    );

    app.get(
      '/datasets/:guid/items',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: guidParams,
          querystring: paginationQuery.extend(versionQuery.shape),
          response: { 200: listResponse(datasetItemResponse) },
        },
      },
      async (request) => {
        const { version, ...pagination } = request.query;
        const { rows, total } = await datasets.items(
          workspaceOf(request).id,
          request.params.guid,
          version,
          pagination,
        );
        return listEnvelope(rows.map(presentDatasetItem), total, pagination);
      },
    );

    // JSON Lines in the dataset's order, streamed a batch at a time; a file the import takes back.
    app.get(
      '/datasets/:guid/items/export',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: guidParams,
          querystring: exportQuery,
          response: {
            200: {
              description: 'The items of the version, one DatasetItem (or one fine-tuning example) per line',
              content: { 'application/x-ndjson': { schema: exportLineResponse } },
            },
          },
        },
      },
      async (request, reply) => {
        const items = await datasets.allItems(
          workspaceOf(request).id,
          request.params.guid,
          request.query.version,
        );
        const name = `dataset-${request.params.guid}`;
        if (request.query.format === 'openai_chat')
          return sendJsonLines(
            reply,
            items,
            (item) => chatExample(chatMessagesOf(item.input), item.expectedOutput),
            `${name}-fine-tuning.jsonl`,
          );
        return sendJsonLines(reply, items, presentDatasetItem, `${name}.jsonl`);
      },
    );

    app.put(
      '/datasets/:guid/items/:itemGuid',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: itemParams,
          body: changeItemBody,
          response: { 200: itemChangedResponse },
        },
      },
      async (request) => {
        const { guid, itemGuid } = request.params;
        const { version, item } = await datasets.changeItem(
          workspaceOf(request).id,
          guid,
          itemGuid,
          request.body,
        );
        return { version, item: presentDatasetItem(item) };
      },
    );

    app.delete(
      '/datasets/:guid/items/:itemGuid',
      { schema: { 'x-right': 'write', tags, params: itemParams, response: { 200: itemRemovedResponse } } },
      async (request) => {
        const { guid, itemGuid } = request.params;
        const { version } = await datasets.removeItem(workspaceOf(request).id, guid, itemGuid);
        return { guid: itemGuid, deleted: true as const, version };
      },
    );
  };
}
