"""kop's tests of experiments (a package, so that test files of two folders may share a name)."""
