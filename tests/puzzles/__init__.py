"""kop's tests of puzzles (a package, so that test files of two folders may share a name)."""
