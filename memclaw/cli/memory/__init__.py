"""Commands that read and change what an agent remembers.

``memories`` is `remember`, `memories` and `forget`; ``facts`` is `facts` and
`inbox`; ``seeing`` is `undo`, `timeline`, `why` and `morning`; ``sessions``,
``extract`` (with `scan`), ``snapshot`` (`export`, `import`), ``files`` (`files list`,
`read`, `write`, `edit`) and ``files_meta`` (`files enable`/`disable`); ``browse``
opens the full-screen browser (the optional Textual extra).
"""
