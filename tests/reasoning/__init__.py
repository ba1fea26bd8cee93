"""kop's tests of reasoning (a package, so that test files of two folders may share a name)."""
