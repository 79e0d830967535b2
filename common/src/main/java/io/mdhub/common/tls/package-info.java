/**
 * TLS for MDHub's TCP ports (RSSL/RIPC over Netty, the order ports over NIO): one settings class that loads the
 * keystore and truststore once and builds the JDK and Netty contexts every TLS port of a process uses.
 */
package io.mdhub.common.tls;
