"""`kg report`: one HTML page of charts about a built graph.

queries (the SPARQL behind each chart) -> charts (matplotlib figures as SVG)
-> page (runs the queries, lays out the page, writes the file).
"""
