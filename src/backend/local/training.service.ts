// The training core moved to the seam (domain/training/training.service.ts over store/kysely/training.store.ts);
// content generation still names it from here.
export { TrainingService } from '../../domain/training/training.service.js';
