/* The node suite's message-rate window: the messages one rank sends before it waits for the
 * other's 1-byte ack (c/rate_isend, thinmpi/channel_rate; the driver's node suite divides by
 * it too). */
#ifndef WB_NODE_WINDOW_H
#define WB_NODE_WINDOW_H

enum { WB_NODE_WINDOW = 64 };

#endif /* WB_NODE_WINDOW_H */
