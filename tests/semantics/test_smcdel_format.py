"""SMCDEL's input language: the classic puzzles with SMCDEL's documented answers, a cross-check of
every answer against kop's explicit model checker, round trips, export, and located errors."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kop
from profiles import examples
from formula_strategies import formulas
from kop.io.smcdel import SmcdelError, atom_name, format_formula, parse_smcdel, to_smcdel
from kop.syntax import formula as F

ROOT = pathlib.Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "theories" / "smcdel"


def answers(name: str) -> list:
    return [a.answer for a in parse_smcdel((PUZZLES / name).read_text()).run()]


def test_muddy_children_as_smcdel_documents():
    # SMCDEL's README: "At which states ... [] [1]" and "valid ... True"
    assert answers("muddy_children.smcdel.txt") == [[[], [1]], True, True, True]


def test_drinking_logicians():
    assert answers("drinking_logicians.smcdel.txt") == [True, True, True, True]


def test_dining_cryptographers():
    assert answers("dining_cryptographers.smcdel.txt") == [True, True, True, False]


def test_cheryls_birthday_is_july_16():
    assert answers("cheryl.smcdel.txt") == [[[3, 17]]]     # July (3), the 16th (17)


# -- every answer against the explicit model checker -------------------------------------------------

AGENTS = ["a", "b"]
ATOMS = [atom_name(n) for n in (1, 2, 3)]


def _no_relativized(f: F.Formula) -> bool:
    return not isinstance(f, F.RelCommon) and all(_no_relativized(k) for k in f.children)


structures = st.tuples(
    st.lists(st.sampled_from([1, 2, 3]), min_size=1, max_size=3, unique=True),   # what a observes
    st.lists(st.sampled_from([1, 2, 3]), min_size=1, max_size=3, unique=True),   # what b observes
    formulas(atoms=ATOMS, modal=False, max_leaves=4),                              # the law
)


@settings(max_examples=examples(150), deadline=None)
@given(structures, formulas(agents=AGENTS, atoms=ATOMS, max_leaves=6).filter(_no_relativized))
def test_answers_agree_with_the_explicit_checker(structure, phi):
    obs_a, obs_b, law = structure
    text = (f"VARS 1,2,3\nLAW {format_formula(law)}\nOBS a: {','.join(map(str, obs_a))}\n"
            f"    b: {','.join(map(str, obs_b))}\nWHERE? {format_formula(phi)}\nVALID? {format_formula(phi)}\n")
    spec = parse_smcdel(text)
    model = kop.KripkeModel.from_observations(ATOMS, law, {"a": [atom_name(n) for n in obs_a],
                                                           "b": [atom_name(n) for n in obs_b]})
    if len(model) == 0:
        return
    where, valid = [a.answer for a in spec.run()]
    truth = model.truth_set(phi)
    expected = sorted((sorted(int(a[1:]) for a in model.valuation(w)) for w in truth), key=lambda s: (len(s), s))
    assert where == expected
    assert valid == (len(truth) == len(model))


@settings(max_examples=examples(200), deadline=None)
@given(formulas(agents=AGENTS, atoms=ATOMS, max_leaves=8).filter(_no_relativized))
def test_printing_reads_back_as_the_same_formula_up_to_grouping(phi):
    text = f"VARS 1,2,3 LAW Top OBS a: 1 b: 2 VALID? {format_formula(phi)}"
    back = parse_smcdel(text).queries[0].formula
    model = kop.KripkeModel.from_observations(ATOMS, F.TRUE, {"a": ["p1"], "b": ["p2"]})
    assert model.truth_set(back) == model.truth_set(phi)


# -- export -------------------------------------------------------------------------------------------

def test_export_reads_back_as_the_same_model():
    m = kop.KripkeModel.load(ROOT / "theories" / "muddy3.model.json")
    spec = parse_smcdel(to_smcdel(m))
    names = sorted(m.atoms)
    back = spec.structure().to_kripke()
    rename = {atom_name(i + 1): a for i, a in enumerate(names)}
    for f in ["K_a m_b", "Kw_a m_a", "C{a,b,c} (m_a | m_b)", "[!(m_a | m_b | m_c)] Kw_c m_c", "D{a,b} m_c"]:
        phi = kop.parse(f)
        ours = {m.valuation(w) for w in m.truth_set(phi)}
        theirs = {frozenset(rename[a] for a in back.valuation(w)) for w in back.truth_set(_renamed(phi, names))}
        assert ours == theirs, f


def _renamed(phi: F.Formula, names: list[str]) -> F.Formula:
    text = kop.to_ascii(phi) if hasattr(kop, "to_ascii") else str(phi)
    for i, a in sorted(enumerate(names), key=lambda t: -len(t[1])):
        text = text.replace(a, atom_name(i + 1))
    return kop.parse(text)


def test_export_of_an_agent_that_observes_nothing():
    m = kop.KripkeModel.from_observations(["p", "q"], F.TRUE, {"a": ["p"], "b": []})
    text = to_smcdel(m)
    assert "b: 3" in text and "~3" in text
    ks = parse_smcdel(text).structure()
    assert ks.valid("~K_b p1 & ~K_b ~p1 & K_a p1 | K_a ~p1")


def test_export_refuses_models_not_given_by_observation():
    m = kop.KripkeModel({"w1": ["p"], "w2": ["p"]}, {"a": [["w1", "w2"]]})
    with pytest.raises(kop.KopError, match="w1 and w2 have the same valuation"):
        to_smcdel(m)
    m = kop.KripkeModel({"w1": [], "w2": ["p"], "w3": ["p", "q"]}, {"a": [["w1", "w3"], ["w2"]]})
    with pytest.raises(kop.KopError, match="partition is not given by observing atoms"):
        to_smcdel(m)


# -- located errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, line, col, words", [
    ("VARS 1,2\nLAW 3\nOBS a: 1", 2, 5, "uses 3, which is not in VARS"),
    ("VARS 1,2\nLAW Top\nOBS a: 1\nVALID? b knows that 1", 4, 8, "agent b is not in OBS"),
    ("VARS 1,2\nLAW Top\nOBS a: 1\nVALID? [a ! 1] 2", 4, 8, "announcement to a group"),
    ("VARS 1,2\nLAW Top\nOBS a: 1\nVALID? Forall 1 a knows that 1", 4, 8, "propositional formulas only"),
    ("VARS 1,2\nLAW ~1\nOBS a: 1\nTRUE? {1} 2", 4, 7, "violates the LAW"),
    ("VARS 1,2\nLAW Top\nOBS a: 1,3", 3, 10, "not in VARS"),
    ("VARS 1,1\nLAW Top\nOBS a: 1", 1, 8, "lists 1 twice"),
    ("VARS 1,2\nLAW a knows that 1\nOBS a: 1", 2, 5, "must be propositional"),
    ("VARS 1,2\nLAW Top\nOBS a: 1\nVALID? (1 & 2", 4, 14, "expected"),
    ("VARS 1,2\nLAW Top\nOBS a: 1\nVALID? 1 $ 2", 4, 10, "SMCDEL token"),
])
def test_located_errors(text, line, col, words):
    with pytest.raises(SmcdelError) as info:
        parse_smcdel(text)
    assert (info.value.line, info.value.column) == (line, col), str(info.value)
    assert words in str(info.value)


# -- the command line ---------------------------------------------------------------------------------

def _kop(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)


def test_cli_run_prints_answers_as_smcdel_does():
    r = _kop("run", str(PUZZLES / "muddy_children.smcdel.txt"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("At which states is [ ! (1|2|3) ] alice knows whether 1 true?\n[]\n[1]\n\nIs ")
    assert "valid on the given structure?\nTrue" in r.stdout


def test_cli_run_json_and_recognition_by_content(tmp_path):
    f = tmp_path / "muddy.txt"
    f.write_text("-- no .smcdel.txt name: recognized by VARS\nVARS 1,2\nLAW Top\nOBS a: 2\n    b: 1\n"
                 "WHERE? a knows that 2\n")
    r = _kop("run", str(f), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == [{"query": "WHERE?", "formula": "a knows that 2", "line": 6, "answer": [[2], [1, 2]]}]


def test_cli_run_bad_smcdel_file_is_located(tmp_path):
    f = tmp_path / "bad.smcdel.txt"
    f.write_text("VARS 1\nLAW Top\nOBS a: 1\nVALID? b knows that 1\n")
    r = _kop("run", str(f))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "line 4, column 8" in r.stderr and "agent b is not in OBS" in r.stderr


def test_cli_export_round_trip(tmp_path):
    out = tmp_path / "muddy3.smcdel.txt"
    r = _kop("export", str(ROOT / "theories" / "muddy3.model.json"), "--to", "smcdel", "-o", str(out))
    assert r.returncode == 0, r.stderr
    r = _kop("run", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "Is Top true at [1,2]?\nTrue\n"
