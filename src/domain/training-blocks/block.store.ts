import type { MatrixEntryRecord, TrainingStore } from '../training/training-store.port.js';
import type { Block } from './block.schema.js';

/** A control linked to a module by a block, at a position within the module. */
export interface BlockLink {
  control_id: string;
  module_id: string;
  position: number;
}

/**
 * Persistence of training blocks and of the modules, control links and matrix entries they generate, per tenant;
 * written inside a unit of work.
 */
export interface TrainingBlockStore extends Pick<TrainingStore, 'moduleIdByCode' | 'insertModule' | 'updateModule'> {
  /** The tenant's blocks, newest first. */
  list(tenant: string): Promise<Block[]>;
  get(tenant: string, id: string): Promise<Block | undefined>;
  insert(block: Block): Promise<void>;
  update(tenant: string, id: string, set: Partial<Omit<Block, 'id' | 'tenant_id'>>): Promise<void>;
  /** Deletes a block and its control links (the modules stay). */
  delete(tenant: string, id: string): Promise<void>;
  /** Replaces every control link of a block with `links`. */
  replaceLinks(tenant: string, blockId: string, links: BlockLink[]): Promise<void>;
  /** The control links of a block with the code of their module, by module code, then position. */
  links(
    tenant: string,
    blockId: string,
  ): Promise<Array<{ control_id: string; module_id: string; module_code: string }>>;
  /** Adds a matrix entry unless the role has the module already; whether it added one. */
  addMatrixEntry(e: MatrixEntryRecord): Promise<boolean>;
}
