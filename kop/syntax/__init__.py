"""Syntax layer: the S5_n formula AST, the Lark parser, printers, the sympy bridge."""
