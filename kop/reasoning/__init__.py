"""Reasoning layer: the S5_n prover (satisfiable / valid / entails) and knowledge levels and cores."""
