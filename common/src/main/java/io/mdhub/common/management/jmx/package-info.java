/**
 * MDHub's own remote JMX: an RMI connector on one fixed port (registry and connection objects alike, so one firewall
 * rule serves it), optionally over TLS, whose users log in from a password file and act in one of two roles read from
 * an access file: {@code monitor} reads, {@code control} also invokes operations and sets attributes. Failed logins
 * are counted, logged in summary and, past a rate per remote address, refused without being checked.
 */
package io.mdhub.common.management.jmx;
