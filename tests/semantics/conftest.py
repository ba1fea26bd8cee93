# the old EPDDL reader, a reference for tests/semantics/test_epddl_syntax.py (imported, not collected)
collect_ignore = ["epddl_old_reader.py", "epddl_old_sexpr.py"]
