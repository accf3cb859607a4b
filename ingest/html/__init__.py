"""Regulations as their publishers serve them on the web: HTML/XHTML pages → lines, anchors and links.

decode.py turns bytes into text (declared or sniffed charset); dom.py parses, drops site furniture and
finds the main content by text density; lines.py walks it into the same `Line`s the text readers give,
with the element ids and hyperlinks each line carries; notes.py tells history and source notes from
rule text; links.py turns hyperlinks into Mentions; format.py is the corpus format.
"""
