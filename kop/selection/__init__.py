"""Selection layer: which game-tree nodes knowledge settles (Decide), which strategy the
knowledge justifies (the selector), and how announcements improve the outcome."""
