"""kop's tests of games (a package, so that test files of two folders may share a name)."""
