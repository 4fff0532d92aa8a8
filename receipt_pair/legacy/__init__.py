"""What only sealed runs use: the frozen words of checks c1 and c2, and old module names. Imports check."""
