import * as z from 'zod';
import { IdParams } from '../domain/dsfa/dsfa.schema.js';
import {
  Block,
  BlockControl,
  BlockCreate,
  BlockGenerate,
  BlockGenerateResult,
  BlockPreview,
  BlockUpdate,
} from '../domain/training-blocks/block.schema.js';
import { NoBody, op } from './operation.js';

const H = 'header' as const;
const Deleted = z.object({ success: z.boolean(), message: z.string() });

/** Training blocks (spec 4.5 blocks routes): modules generated from canonical controls. */
export const trainingBlocksContract = {
  list: op({
    method: 'GET',
    path: '/training/blocks',
    summary: 'All block configurations',
    tenant: H,
    output: z.array(Block),
    status: 200,
  }),
  create: op({
    method: 'POST',
    path: '/training/blocks',
    summary: 'Create a block',
    tenant: H,
    body: BlockCreate,
    output: Block,
    status: 201,
  }),
  get: op({
    method: 'GET',
    path: '/training/blocks/{id}',
    ids: { params: { id: 'training_block' } },
    summary: 'One block',
    tenant: H,
    params: IdParams,
    output: Block,
    status: 200,
  }),
  update: op({
    method: 'PUT',
    path: '/training/blocks/{id}',
    ids: { params: { id: 'training_block' } },
    summary: 'Change block fields',
    tenant: H,
    params: IdParams,
    body: BlockUpdate,
    output: Block,
    status: 200,
  }),
  delete: op({
    method: 'DELETE',
    path: '/training/blocks/{id}',
    ids: { params: { id: 'training_block' } },
    summary: 'Delete a block (its modules stay)',
    tenant: H,
    params: IdParams,
    output: Deleted,
    status: 200,
  }),
  preview: op({
    method: 'POST',
    path: '/training/blocks/{id}/preview',
    ids: { params: { id: 'training_block' } },
    summary: 'Which controls would go into which modules (writes nothing)',
    tenant: H,
    params: IdParams,
    body: NoBody,
    output: BlockPreview,
    status: 200,
  }),
  generate: op({
    method: 'POST',
    path: '/training/blocks/{id}/generate',
    ids: { params: { id: 'training_block' } },
    summary: 'Create or update the modules, link controls, content and matrix',
    tenant: H,
    params: IdParams,
    body: BlockGenerate,
    output: BlockGenerateResult,
    status: 200,
    raises: ['conflict'],
  }),
  controls: op({
    method: 'GET',
    path: '/training/blocks/{id}/controls',
    ids: { params: { id: 'training_block' } },
    summary: 'Controls linked to the block',
    tenant: H,
    params: IdParams,
    output: z.array(BlockControl),
    status: 200,
  }),
};
