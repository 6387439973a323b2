build/tests/unit/test_format: tests/unit/test_format.c tests/unit/tap.h \
 include/seekscope/codec.h include/seekscope/format.h \
 include/seekscope/model.h collector/trace_write.h render/trace_read.h
tests/unit/tap.h:
include/seekscope/codec.h:
include/seekscope/format.h:
include/seekscope/model.h:
collector/trace_write.h:
render/trace_read.h:
