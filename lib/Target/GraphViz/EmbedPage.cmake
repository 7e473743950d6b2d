# Writes the page template INPUT as a C++ string constant kGraphPage into
# OUTPUT, so that tfc carries the page it fills in (cmake -P).
file(READ "${INPUT}" page)
file(WRITE "${OUTPUT}"
  "// Generated from GraphPage.html by EmbedPage.cmake; do not edit.\n"
  "const char kGraphPage[] = R\"tfcpage(${page})tfcpage\";\n")
