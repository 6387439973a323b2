/* seekscope record (placeholder until the recorder lands in this file). */
#include <stdio.h>
#include "commands.h"

int ss_cmd_record(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "seekscope record: not built yet\n");
	return 1;
}
