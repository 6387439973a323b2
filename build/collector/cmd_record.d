build/collector/cmd_record.o: collector/cmd_record.c collector/commands.h
collector/commands.h:
