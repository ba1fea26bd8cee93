"""Hypothesis strategies for random kop formulas, shared by the test modules.

``formulas(agents, atoms, max_leaves)`` draws formulas over the whole language;
``names`` draws random atom and agent names that the parser accepts.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from kop.syntax import formula as F

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

atom_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True).filter(
    lambda s: not F.is_reserved_atom(s))
agent_names = st.from_regex(r"[A-Za-z0-9_]{1,6}", fullmatch=True)


def formulas(agents=None, atoms=None, max_leaves: int = 12, modal: bool = True,
             announcements: bool = True, groups: bool = True, uncertain: bool = False, belief: bool = False):
    """Random formulas.  *agents*/*atoms*: lists of names, or None for random names.

    *uncertain* adds belief (``B_a``, ``B_a(ψ, φ)``) and probability (``P_a(φ) ⋈ r``);
    *belief* adds belief only.
    """
    ag = st.sampled_from(agents) if agents else agent_names
    at = st.sampled_from(atoms) if atoms else atom_names
    leaves = st.one_of(at.map(F.Atom), st.just(F.TRUE), st.just(F.FALSE)) if not atoms else \
        st.one_of(at.map(F.Atom), at.map(F.Atom), at.map(F.Atom), st.just(F.TRUE), st.just(F.FALSE))
    grp = st.lists(ag, min_size=1, max_size=3)

    def extend(children):
        options = [
            children.map(F.Not),
            st.lists(children, min_size=2, max_size=3).map(lambda xs: F.And(*xs)),
            st.lists(children, min_size=2, max_size=3).map(lambda xs: F.Or(*xs)),
            st.tuples(children, children).map(lambda t: F.Implies(*t)),
            st.tuples(children, children).map(lambda t: F.Iff(*t)),
        ]
        if modal:
            options += [
                st.tuples(ag, children).map(lambda t: F.Know(*t)),
                st.tuples(ag, children).map(lambda t: F.Possible(*t)),
                st.tuples(ag, children).map(lambda t: F.KnowWhether(*t)),
            ]
            if groups:
                options += [
                    st.tuples(grp, children).map(lambda t: F.Everyone(*t)),
                    st.tuples(grp, children).map(lambda t: F.Common(*t)),
                    st.tuples(grp, children).map(lambda t: F.Distributed(*t)),
                    st.tuples(grp, children, children).map(lambda t: F.RelCommon(*t)),
                ]
            if uncertain:
                rel = st.sampled_from([">=", ">", "<", "<=", "="])
                bound = st.builds(lambda n, d: Fraction(min(n, d), d), st.integers(0, 4), st.integers(1, 4))
                options += [
                    st.tuples(ag, children).map(lambda t: F.Belief(*t)),
                    st.tuples(ag, children, children).map(lambda t: F.CondBelief(*t)),
                    st.tuples(ag, children, rel, bound).map(lambda t: F.Probability(*t)),
                ]
            if belief and not uncertain:
                options += [
                    st.tuples(ag, children).map(lambda t: F.Belief(*t)),
                    st.tuples(ag, children).map(lambda t: F.Belief(*t)),
                    st.tuples(ag, children, children).map(lambda t: F.CondBelief(*t)),
                ]
            if announcements:
                options += [
                    st.tuples(children, children).map(lambda t: F.Announce(*t)),
                    st.tuples(children, children).map(lambda t: F.AnnounceDual(*t)),
                ]
        return st.one_of(*options)

    return st.recursive(leaves, extend, max_leaves=max_leaves)
