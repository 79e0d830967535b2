/**
 * DACS-style entitlements: who may log in from where with which application, which services and permission codes
 * each user holds, which items carry which codes (their locks), which providers may publish which services. The model
 * is immutable ({@link io.mdhub.common.entitlement.EntitlementTable}); a source
 * ({@link io.mdhub.common.entitlement.EntitlementSource}) hands out the current one and says when it changed.
 */
package io.mdhub.common.entitlement;
