/**
 * Reads a V8 `.cpuprofile` (as `node --cpu-prof` writes it) and says where the time went,
 * in three views: the functions with the most self time; each sample charged to its
 * innermost owner — project code by file and function, or a package by name; and each
 * sample charged to the innermost project function only (for Express middleware, which
 * calls `next()` synchronously, that is the stage of the request).
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One line of a view: a name and the ms charged to it. */
export interface Share {
  name: string;
  ms: number;
  pct: number;
}

/** What a profile says, over the samples inside the window (µs of the monotonic clock). */
export interface ProfileSummary {
  sampledMs: number;
  /** Whether the window was found inside the profile (else every sample counts). */
  windowed: boolean;
  selfTime: Share[];
  byOwner: Share[];
  byProjectFunction: Share[];
}

const projectRoot = new URL('../../', import.meta.url).href;
const SYNTHETIC = new Set(['(garbage collector)', '(idle)', '(program)', '(root)']);

type Origin = { kind: 'project'; file: string } | { kind: 'package'; name: string } | { kind: 'core'; module: string } | { kind: 'other' };

function originOf(url: string): Origin {
  const inModules = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inModules) return { kind: 'package', name: inModules[1]! };
  if (url.startsWith(projectRoot)) return { kind: 'project', file: url.slice(projectRoot.length) };
  if (url.startsWith('node:')) return { kind: 'core', module: url };
  return { kind: 'other' };
}

const frameName = (frame: CallFrame) => frame.functionName || '(anonymous)';

function top(charged: Map<string, number>, totalMs: number, limit: number): Share[] {
  return [...charged]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, ms]) => ({ name, ms: Math.round(ms), pct: Math.round((ms / totalMs) * 1000) / 10 }));
}

/** Summarises the profile at `file`, counting only samples inside `window` when it falls within the profile. */
export function summarizeProfile(file: string, window: { fromUs: number; toUs: number } | null, limit = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stack = (id: number): CallFrame[] => {
    const frames: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(byId.get(at)!.callFrame);
    return frames;
  };
  const windowed = window !== null && window.fromUs >= profile.startTime && window.toUs <= profile.endTime;

  const selfTime = new Map<string, number>();
  const byOwner = new Map<string, number>();
  const byProjectFunction = new Map<string, number>();
  const charge = (map: Map<string, number>, name: string, ms: number) => map.set(name, (map.get(name) ?? 0) + ms);
  let sampledMs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (windowed && (at < window!.fromUs || at > window!.toUs)) return;
    sampledMs += ms;
    const frames = stack(id);
    const leaf = frames[0]!;
    const leafOrigin = originOf(leaf.url);
    const where = leafOrigin.kind === 'project' ? leafOrigin.file : leafOrigin.kind === 'package' ? leafOrigin.name : leafOrigin.kind === 'core' ? leafOrigin.module : 'native';
    charge(selfTime, SYNTHETIC.has(leaf.functionName) ? leaf.functionName : `${frameName(leaf)}  ${where}${leaf.url ? `:${leaf.lineNumber + 1}` : ''}`, ms);

    let owner: string | undefined;
    let projectFunction: string | undefined;
    for (const frame of frames) {
      const origin = originOf(frame.url);
      if (origin.kind === 'project') {
        owner ??= `${origin.file} ${frameName(frame)}`;
        projectFunction = `${origin.file} ${frameName(frame)}`;
        break;
      }
      if (origin.kind === 'package') owner ??= `[${origin.name}]`;
    }
    const fallback = SYNTHETIC.has(leaf.functionName) ? leaf.functionName : `[node core] ${leafOrigin.kind === 'core' ? leafOrigin.module : frameName(leaf)}`;
    charge(byOwner, owner ?? fallback, ms);
    charge(byProjectFunction, projectFunction ?? (owner?.startsWith('[') ? `outside project code: ${owner}` : fallback), ms);
  });
  return {
    sampledMs: Math.round(sampledMs),
    windowed,
    selfTime: top(selfTime, sampledMs, limit),
    byOwner: top(byOwner, sampledMs, limit),
    byProjectFunction: top(byProjectFunction, sampledMs, limit),
  };
}

/** The summary as text tables. */
export function formatProfile(summary: ProfileSummary): string {
  const view = (title: string, shares: Share[]) =>
    [`${title}`, ...shares.map((s) => `  ${s.pct.toFixed(1).padStart(5)}%  ${String(s.ms).padStart(6)} ms  ${s.name}`)].join('\n');
  return [
    `${summary.sampledMs} ms sampled${summary.windowed ? ' (measured run only)' : ' (whole process: the run window was not inside the profile)'}`,
    '',
    view('self time, by function:', summary.selfTime),
    '',
    view('by innermost owner (project function, or [package]):', summary.byOwner),
    '',
    view('by innermost project function (the middleware stage):', summary.byProjectFunction),
  ].join('\n');
}
