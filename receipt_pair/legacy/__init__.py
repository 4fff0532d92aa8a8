"""What only sealed runs use: frozen words of checks c1, c2 and readers v1-v5. Imports check."""
