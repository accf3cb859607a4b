"""The generic format: users' own regulations as text, Markdown, Word or PDF files.

No imports here: the format (format.py) and the citation finders import this package's modules, and an
__init__ that imported the format back would close that circle.
"""
