"""Claims of the five seed papers, one module per paper."""
