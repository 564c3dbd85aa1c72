/**
 * The order the test files start in: the longest first, whatever their project, so that on two
 * cores the run does not end with one long file running alone. Vitest's own sequencer takes the
 * projects one after another (all of `main`, then `postgres`, then `suite-proof`) and only
 * within a project the longest first. Durations are vitest's cache of the last run here; a file
 * it has not seen goes first, and without a cache (a fresh clone) the larger file does.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A sequencer: vitest's sharding, its own order of files replaced by the longest first. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (file: TestSpecification) => `${file.project.name}:${relative(config.root, file.moduleId)}`;
    // Unknown files first (-1), then by the last run's duration, then by size.
    const weight = (file: TestSpecification) => cache.getFileTestResults(key(file))?.duration ?? -1;
    const size = (file: TestSpecification) => cache.getFileStats(key(file))?.size ?? 0;
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      const [wa, wb] = [weight(a), weight(b)];
      if (wa === -1 || wb === -1) return wa === wb ? size(b) - size(a) : wa === -1 ? -1 : 1;
      return wb - wa;
    });
  }
}
