package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.Qos;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.mdhub.common.dictionary.DictionaryLoader;

/**
 * The Source Directory entry MDHub's servers and tools announce for a service they serve to consumers: its name and
 * vendor, the Dictionary domain first and then the served domains, the RWFFld and RWFEnum dictionaries as provided
 * and used (consumers download them from the server), realtime tick-by-tick QoS, and its ServiceState and
 * AcceptingRequests. Built once per service change, not per message; encoded with {@link DirectoryEncoder}.
 */
public final class DirectoryServices
{
    private DirectoryServices()
    {
    }

    /**
     * @param serviceId           the id consumers put in their item keys.
     * @param name                the service name.
     * @param vendor              the Vendor element.
     * @param domains             the RDM domain types served besides the dictionary (a Dictionary entry is skipped).
     * @param isUp                ServiceState: true for up.
     * @param isAcceptingRequests AcceptingRequests.
     * @param action              the map entry action ({@code MapEntryActions} ADD or UPDATE).
     * @return a service with its INFO and STATE filters.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // the directory's fields, one each
    public static Service service(
        final int serviceId,
        final String name,
        final String vendor,
        final int[] domains,
        final boolean isUp,
        final boolean isAcceptingRequests,
        final int action)
    {
        final Service service = DirectoryMsgFactory.createService();
        service.serviceId(serviceId);
        service.action(action);
        service.applyHasInfo();
        service.info().serviceName().data(name);
        service.info().applyHasVendor();
        service.info().vendor().data(vendor);
        service.info().capabilitiesList().add((long)DomainTypes.DICTIONARY);
        for (final int domain : domains)
        {
            if (DomainTypes.DICTIONARY != domain)
            {
                service.info().capabilitiesList().add((long)domain);
            }
        }
        service.info().applyHasDictionariesProvided();
        service.info().dictionariesProvidedList().add(DictionaryLoader.FIELD_DICTIONARY_NAME);
        service.info().dictionariesProvidedList().add(DictionaryLoader.ENUM_TYPE_DICTIONARY_NAME);
        service.info().applyHasDictionariesUsed();
        service.info().dictionariesUsedList().add(DictionaryLoader.FIELD_DICTIONARY_NAME);
        service.info().dictionariesUsedList().add(DictionaryLoader.ENUM_TYPE_DICTIONARY_NAME);
        service.info().applyHasQos();
        final Qos qos = CodecFactory.createQos();
        qos.timeliness(QosTimeliness.REALTIME);
        qos.rate(QosRates.TICK_BY_TICK);
        service.info().qosList().add(qos);
        service.applyHasState();
        service.state().serviceState(isUp ? 1 : 0);
        service.state().applyHasAcceptingRequests();
        service.state().acceptingRequests(isAcceptingRequests ? 1 : 0);
        return service;
    }
}
