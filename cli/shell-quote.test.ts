import { describe, expect, it } from 'vitest';
import { shellLine, shellWords } from './shell-quote.ts';

describe('shellWords', () => {
  it('reads back every line shellLine writes', () => {
    for (const words of [['node', 'client.mjs'], ['python3', 'my client.py', "it's", ''], ['/usr/bin/env', 'A=1', '--flag=x y', 'tab\there', '$HOME', '*.mjs', 'a"b']]) {
      expect(shellWords(shellLine(words))).toEqual(words);
    }
  });

  it('takes blanks between words and a backslash outside quotes as a shell does', () => {
    expect(shellWords('  node   a\\ b  ')).toEqual(['node', 'a b']);
  });

  it('is null for what only a shell could read: double quotes, variables, globs, redirections, an unclosed quote', () => {
    for (const line of ['node "a b"', 'node $CLIENT', 'node *.mjs', 'node a > log', "node 'a", 'node a\\', 'a | b']) expect(shellWords(line), line).toBeNull();
  });
});
