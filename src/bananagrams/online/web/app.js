// Placeholder: the game page's script (see docs/bananagrams-online.md for the protocol).
