//! Cephalopod (CodinGame Spring Challenge 2025): the sum of final-board hashes over every
//! move sequence of a given depth, computed by a symmetry-reduced BFS over 32-bit states.
