"""CPU time of the bidding model and policies, microseconds a hand (vectorised over 20,000
random hands of each preset's deck; process CPU time, median of 5, so that a loaded machine
does not inflate it):

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 nice -n 10 python benchmarks/bench_bidmodel.py
"""
import numpy as np, time
from bideuchre.bidding import TrickModel, get_policy
N = 20000
for pn in ['standard','racehorse','double32']:
    m=TrickModel.load(pn); p=m.preset
    rng=np.random.default_rng(1); deck=np.repeat(np.array([int(c) for c in p.deck.card_ids]),p.deck.copies)
    rows=rng.permuted(np.tile(deck,(N,1)),axis=1)[:,:p.tricks]; h=np.zeros((N,24),np.uint8)
    np.add.at(h,(np.repeat(np.arange(N),p.tricks),rows.ravel()),1)
    pol=get_policy('model',p); pol.overcall_rates(); heu=get_policy('heuristic',p)
    res={}
    for name,f in [('trick_probs',lambda: m.trick_probs(h,1,0)),('lone_probs',lambda: m.lone_probs(h,1,0)),('model call_probs',lambda: pol.call_probs(h,1,0,[])),('heuristic choose',lambda: heu.choose(h,1,0,[]))]:
        ts=[]
        for _ in range(5):
            t=time.process_time(); f(); ts.append(time.process_time()-t)
        res[name]=round(float(np.median(ts))/N*1e6,2)
    print(pn, 'CPU microseconds a hand (median of 5, %d hands):' % N, res)
