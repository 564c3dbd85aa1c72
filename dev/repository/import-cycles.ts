/**
 * Import cycles among the project's source files: the strongly connected components of the
 * import graph (Tarjan's algorithm, from @dagrejs/graphlib), each with the imports inside it,
 * so a report names exactly which imports to cut.
 */
import { alg, Graph } from '@dagrejs/graphlib';
import { type ImportEdge, importEdges, sourceFiles } from './source-files.ts';

/** Files that import each other round in a circle, and the imports that close it. */
export interface ImportCycle {
  files: string[];
  imports: ImportEdge[];
}

/** Every import cycle among the source files of the project at `root`; none when the graph is acyclic. */
export function importCycles(root: string): ImportCycle[] {
  const files = sourceFiles(root);
  const edges = importEdges(root, files);
  const graph = new Graph({ directed: true });
  for (const file of files) graph.setNode(file.path);
  for (const edge of edges) graph.setEdge(edge.from, edge.to);
  // findCycles: every component of more than one file, and every file that imports itself.
  return alg.findCycles(graph).map((component) => {
    const members = new Set(component);
    return {
      files: [...component].sort(),
      imports: edges.filter((edge) => members.has(edge.from) && members.has(edge.to)),
    };
  });
}

/** A cycle as lines a person can act on: its files, then each import inside it. */
export function describeCycle(cycle: ImportCycle): string {
  return [`${cycle.files.length} files: ${cycle.files.join(', ')}`, ...cycle.imports.map((edge) => `  ${edge.from} imports ${edge.to}`)].join('\n');
}
