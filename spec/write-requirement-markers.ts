/**
 * A step of `npm run build`: reads the requirement markers of the sandbox's sources and writes
 * them to `dist/spec/requirement-markers.json`, which the compiled package reads in their place
 * (it ships no sources). Run as `node dist/spec/write-requirement-markers.js` from the package root.
 */
import { writeFileSync } from 'node:fs';
import { MARKER_FILE, markersJson, scanMarkers } from './requirement-markers.ts';

const { markers, malformed } = scanMarkers();
// A near miss would silently drop a file from /docs/requirements; spec/requirement-markers.test.ts names it.
if (malformed.length > 0) process.stderr.write(`warning: ${malformed.length} comment(s) look like requirement markers but are not one: ${malformed.map((site) => `${site.file}:${site.line}`).join(', ')}\n`);
writeFileSync(MARKER_FILE, markersJson(markers));
const sites = [...markers.values()].reduce((sum, list) => sum + list.length, 0);
process.stdout.write(`wrote ${MARKER_FILE.slice(MARKER_FILE.lastIndexOf('dist/'))}: ${markers.size} requirements, ${sites} markers\n`);
