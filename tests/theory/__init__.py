"""kop's tests of theory (a package, so that test files of two folders may share a name)."""
