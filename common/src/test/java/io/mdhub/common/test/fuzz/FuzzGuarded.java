package io.mdhub.common.test.fuzz;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Put on a fuzz class (*FuzzTest): every try of its properties and examples runs under {@link FuzzGuard}'s time and
 * allocation bounds, which also serve as the class's test timeout.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@AddLifecycleHook(FuzzGuard.class)
public @interface FuzzGuarded
{
}
