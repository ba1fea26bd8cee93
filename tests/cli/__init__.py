"""kop's tests of cli (a package, so that test files of two folders may share a name)."""
