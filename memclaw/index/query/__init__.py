"""What a search query says besides its words: when, about whom, and the lines around a hit.

``when`` reads dates and periods out of the query ("on 3 June, 2023", "in
March", "last week", "igår"), ``people`` ranks a named person's own lines
first, and ``context`` returns the neighbour lines of a hit (``--context N``).
"""
