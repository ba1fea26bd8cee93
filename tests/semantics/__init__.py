"""kop's tests of semantics (a package, so that test files of two folders may share a name)."""
