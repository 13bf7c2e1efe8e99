import { useLatchInstance } from '../../context'
import { useModalT } from '../../components/LatchModal/strings'
import { NetworkList } from './NetworkList'

/** The configured networks; picking one switches to it (spec §4). */
export function NetworksView() {
  const t = useModalT()
  const latch = useLatchInstance()
  return (
    <div className="latch-view" data-testid="latch-view-Networks">
      <NetworkList label={t('view.Networks')} />
      <button type="button" className="latch-link-button" data-testid="latch-what-is-a-network" onClick={() => latch.push('WhatIsANetwork')}>
        {t('view.WhatIsANetwork')}
      </button>
    </div>
  )
}
