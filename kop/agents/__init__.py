"""Agents that play games with what they know: ``kop.Agent``, ``kop.Match``, ``kop.tournament``."""
