/**
 * Length-prefixed messages over non-blocking TCP, served by the thread that owns them: a {@link
 * io.mdhub.common.net.SocketPoller} per thread, {@link io.mdhub.common.net.FrameConnection}s with bounded send
 * buffers, and an idle strategy that blocks in the kernel until a socket is ready.
 */
package io.mdhub.common.net;
