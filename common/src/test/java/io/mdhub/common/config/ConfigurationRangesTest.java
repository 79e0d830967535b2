package io.mdhub.common.config;

import static io.mdhub.common.test.ConfigurationRanges.assertEveryNumericKeyIsRangeChecked;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.mdhub.common.concurrent.IdleConfiguration;
import io.mdhub.common.dictionary.DictionaryConfiguration;
import io.mdhub.common.entitlement.EntitlementConfiguration;
import io.mdhub.common.latency.LatencyConfiguration;
import io.mdhub.common.management.ManagementConfiguration;
import io.mdhub.common.management.jmx.JmxConfiguration;
import io.mdhub.common.metrics.MetricsConfiguration;
import io.mdhub.common.order.client.OrderClientConfiguration;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.test.InterruptAfter;

/**
 * Every numeric key of common's configuration classes refuses a value outside its range at start.
 */
@InterruptAfter(30)
class ConfigurationRangesTest
{
    @Test
    void ripcKeys()
    {
        assertEveryNumericKeyIsRangeChecked(RipcConfiguration.class, Set.of(RipcConfiguration.BIND_ADDRESS_PROP_NAME,
            RipcConfiguration.CLIENT_HOST_PROP_NAME, RipcConfiguration.COMPONENT_NAME_PROP_NAME));
    }

    @Test
    void idleKeys()
    {
        assertEveryNumericKeyIsRangeChecked(IdleConfiguration.class, Set.of());
    }

    @Test
    void latencyKeys()
    {
        assertEveryNumericKeyIsRangeChecked(LatencyConfiguration.class, Set.of());
    }

    @Test
    void managementKeys()
    {
        assertEveryNumericKeyIsRangeChecked(
            ManagementConfiguration.class, Set.of(ManagementConfiguration.BIND_ADDRESS_PROP_NAME));
    }

    @Test
    void jmxKeys()
    {
        assertEveryNumericKeyIsRangeChecked(JmxConfiguration.class, Set.of(JmxConfiguration.HOST_PROP_NAME,
            JmxConfiguration.PASSWORD_FILE_PROP_NAME, JmxConfiguration.ACCESS_FILE_PROP_NAME,
            JmxConfiguration.SSL_KEYSTORE_PROP_NAME, JmxConfiguration.SSL_KEYSTORE_PASSWORD_FILE_PROP_NAME,
            JmxConfiguration.SSL_TRUSTSTORE_PROP_NAME, JmxConfiguration.SSL_TRUSTSTORE_PASSWORD_FILE_PROP_NAME));
    }

    @Test
    void metricsKeys()
    {
        assertEveryNumericKeyIsRangeChecked(MetricsConfiguration.class, Set.of());
    }

    @Test
    void orderClientKeys()
    {
        assertEveryNumericKeyIsRangeChecked(OrderClientConfiguration.class,
            Set.of(OrderClientConfiguration.IDLE_STRATEGY_PROP_NAME, OrderClientConfiguration.SERVERS_PROP_NAME),
            Set.of(OrderClientConfiguration.CLIENT_ID_PROP_NAME));
    }

    @Test
    void dictionaryKeys()
    {
        assertEveryNumericKeyIsRangeChecked(DictionaryConfiguration.class,
            Set.of(DictionaryConfiguration.FIELD_FILE_PROP_NAME, DictionaryConfiguration.ENUM_FILE_PROP_NAME));
    }

    @Test
    void entitlementKeys()
    {
        assertEveryNumericKeyIsRangeChecked(
            EntitlementConfiguration.class, Set.of(EntitlementConfiguration.FILE_PROP_NAME));
    }
}
