"""kop's tests of worlds (a package, so that test files of two folders may share a name)."""
