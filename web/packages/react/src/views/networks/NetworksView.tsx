import { useT } from '../../hooks/useT'
import { NetworkList } from './NetworkList'

/** The configured networks; picking one switches to it (spec §4). */
export function NetworksView() {
  const t = useT()
  return (
    <div className="latch-view" data-testid="latch-view-Networks">
      <NetworkList label={t('view.Networks')} />
    </div>
  )
}
