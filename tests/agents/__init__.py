"""kop's tests of agents (a package, so that test files of two folders may share a name)."""
