/**
 * JMX MBeans of an open engine under the {@code dev.breakwater} domain: {@link dev.breakwater.ops.jmx.BreakwaterMXBeans}
 * declares what they show, {@link dev.breakwater.ops.jmx.EngineMBeans} registers and unregisters them.
 */
package dev.breakwater.ops.jmx;
