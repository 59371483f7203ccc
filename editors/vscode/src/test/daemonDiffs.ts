// Diffs written by the daemon's own tools.UnifiedDiff (go-udiff, 3 lines of
// context, path f.go), captured once: the shapes the popup carries.

export interface DiffFixture {
  before: string;
  after: string;
  diff: string;
}

export const daemonDiffs: Record<string, DiffFixture> = {
  crlf: {
    before: "a\r\nb\r\nc\r\n",
    after: "a\r\nB\r\nc\r\n",
    diff: "--- a/f.go\n+++ b/f.go\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n",
  },
  deleteAll: {
    before: "x\ny\n",
    after: "",
    diff: "--- a/f.go\n+++ b/f.go\n@@ -1,2 +0,0 @@\n-x\n-y\n",
  },
  long: {
    before: "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13\nline 14\nline 15\nline 16\nline 17\nline 18\nline 19\nline 20\nline 21\nline 22\nline 23\nline 24\nline 25\nline 26\nline 27\nline 28\nline 29\nline 30\nline 31\nline 32\nline 33\nline 34\nline 35\nline 36\nline 37\nline 38\nline 39\nline 40\nline 41\nline 42\nline 43\nline 44\nline 45\nline 46\nline 47\nline 48\nline 49\nline 50\nline 51\nline 52\nline 53\nline 54\nline 55\nline 56\nline 57\nline 58\nline 59\nline 60\n",
    after: "line 1 changed\nline 2\nline 3\nline 4 changed\nline 5\nline 6\nline 7 changed\nline 8\nline 9\nline 10 changed\nline 11\nline 12\nline 13 changed\nline 14\nline 15\nline 16 changed\nline 17\nline 18\nline 19 changed\nline 20\nline 21\nline 22 changed\nline 23\nline 24\nline 25 changed\nline 26\nline 27\nline 28 changed\nline 29\nline 30\nline 31 changed\nline 32\nline 33\nline 34 changed\nline 35\nline 36\nline 37 changed\nline 38\nline 39\nline 40 changed\nline 41\nline 42\nline 43 changed\nline 44\nline 45\nline 46 changed\nline 47\nline 48\nline 49 changed\nline 50\nline 51\nline 52 changed\nline 53\nline 54\nline 55 changed\nline 56\nline 57\nline 58 changed\nline 59\nline 60\n",
    diff: "--- a/f.go\n+++ b/f.go\n@@ -1,60 +1,60 @@\n-line 1\n+line 1 changed\n line 2\n line 3\n-line 4\n+line 4 changed\n line 5\n line 6\n-line 7\n+line 7 changed\n line 8\n line 9\n-line 10\n+line 10 changed\n line 11\n line 12\n-line 13\n+line 13 changed\n line 14\n line 15\n-line 16\n+line 16 changed\n line 17\n line 18\n-line 19\n+line 19 changed\n line 20\n line 21\n-line 22\n+line 22 changed\n line 23\n line 24\n-line 25\n+line 25 changed\n line 26\n line 27\n-line 28\n+line 28 changed\n line 29\n line 30\n-line 31\n+line 31 changed\n line 32\n line 33\n-line 34\n+line 34 changed\n line 35\n line 36\n-line 37\n+line 37 changed\n line 38\n line 39\n-line 40\n+line 40 changed\n line 41\n line 42\n-line 43\n+line 43 changed\n line 44\n line 45\n-line 46\n+line 46 changed\n line 47\n line 48\n-line 49\n+line 49 changed\n line 50\n line 51\n-line 52\n+line 52 changed\n line 53\n line 54\n-line 55\n+line 55 changed\n line 56\n line 57\n-line 58\n+line 58 changed\n line 59\n line 60\n",
  },
  newFile: {
    before: "",
    after: "package x\n\nfunc X() {}\n",
    diff: "--- a/f.go\n+++ b/f.go\n@@ -0,0 +1,3 @@\n+package x\n+\n+func X() {}\n",
  },
  noNewlineAdd: {
    before: "a\nb\nc",
    after: "a\nb\nc\nd\n",
    diff: "--- a/f.go\n+++ b/f.go\n@@ -1,3 +1,4 @@\n a\n b\n-c\n\\ No newline at end of file\n+c\n+d\n",
  },
  noNewlineKeep: {
    before: "a\nb\nc",
    after: "a\nB\nc",
    diff: "--- a/f.go\n+++ b/f.go\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n\\ No newline at end of file\n",
  },
  twoHunks: {
    before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n",
    after: "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nFIFTEEN\n16\n",
    diff: "--- a/f.go\n+++ b/f.go\n@@ -1,5 +1,5 @@\n 1\n-2\n+TWO\n 3\n 4\n 5\n@@ -12,5 +12,5 @@\n 12\n 13\n 14\n-15\n+FIFTEEN\n 16\n",
  },
};
