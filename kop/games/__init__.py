"""Games layer: game trees, formats, and the KOP strategies (minimax, M^d, M^h, HM0M^d, play)."""
