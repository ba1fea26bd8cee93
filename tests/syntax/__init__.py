"""kop's tests of syntax (a package, so that test files of two folders may share a name)."""
