/**
 * How the core shows user input in its messages ({@link dev.stockade.policy.text.Quoted}); below both the
 * model and the glob language, which quote input in their problems, so neither depends on the other for it.
 *
 * <p><b>API:</b> public and versioned (docs/library.md); stateless and thread-safe.
 */
package dev.stockade.policy.text;
