/* SPDX-License-Identifier: MIT */
/* Standard output checked as written and closed at the end of every command. */
#ifndef IOSTRAT_CLOSEOUT_H
#define IOSTRAT_CLOSEOUT_H

/* At start: a closed standard output held so no file of ours becomes fd 1
 * (writes to it then fail, and stdout_close says so). */
void stdout_hold(void);
/* At the end of every command: flush and close stdout; on an error, one
 * line ("write error: standard output: REASON") and 1 unless ret already
 * says failure; else ret. */
int stdout_close(int ret);

#endif
