"""kop's tests of fuzz (a package, so that test files of two folders may share a name)."""
